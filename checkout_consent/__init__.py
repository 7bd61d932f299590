"""checkout-consent: does an AI agent handle money the way its principal consented to?"""

__version__ = "0.1.0"
