"""Harness: authoring the pizza tasks from templates (public and hidden splits)."""
