"""The scenario data, installed as the package `checkout_consent.tasks_data` (see setup.py):
a wheel ships a copy, an editable install maps this folder. Read it through
`checkout_consent.runtime.files`, never by a path relative to the code."""
