"""The leaderboard: submissions as data in a pull request, validated by re-grading, and a
board rendered from the submissions alone (README tables, a static page, plots)."""
