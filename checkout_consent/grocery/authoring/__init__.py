"""Writers of the grocery data (not the world): catalogs, held-out briefs, the CLI verbs."""
