"""Shared test settings: hypothesis profile sized for a shared two-core machine."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "suite", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("suite")  # `pytest --hypothesis-profile=thorough` searches harder
