"""The control endpoint: the scripted controls served over the OpenAI and Anthropic wire
formats (`serve-controls`), what the cassettes record and reproduce replays."""
