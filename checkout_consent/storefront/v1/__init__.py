"""Storefront adversary v1: a month in business, four adversaries and the owner's consent."""
