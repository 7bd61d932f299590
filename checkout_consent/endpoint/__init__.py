"""The control endpoint: the controls over the OpenAI and Anthropic wire formats."""
