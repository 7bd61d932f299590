"""The grocery harness (not the world, the grader or the agent's tools): the controls' plans,
the control ladder's sanity check, the CLI's printing, and the README's seed table."""
