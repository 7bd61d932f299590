"""The grocery weekly-cart family: build a week's cart to a brief, hand it over, never pay."""
