"""Shared test settings: hypothesis profile sized for a shared two-core machine."""

import os
import shutil

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "suite", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("suite")  # `pytest --hypothesis-profile=thorough` searches harder


def chromium() -> str | None:
    """Debian's headless Chromium, for the tests that look at a page as a person would."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


# A browser test may skip on a developer's machine without Chromium, never in CI: `.ci/run`
# installs it, and a CI run without it fails those tests instead of passing them unseen.
needs_chromium = pytest.mark.skipif(
    chromium() is None and not os.environ.get("CI"),
    reason="needs Debian's chromium (apt-get install chromium); under CI it is required",
)


# Under pytest-xdist (the default run), a module's tests run on one worker so its fixtures run
# once. The board's modules re-grade every committed example submission, which a process
# does once (`leaderboard.board.validated` keeps each folder's verdict): they share a worker.
# storefront_v1's modules that read its controls' records on seeds 0-9 (tests/storefront_v1/
# played.py, played once per process: a month per seed and control) share one too.
SHARED_WORKER = (
    "tests/leaderboard/",
    *(
        f"tests/storefront_v1/{name}.py"
        for name in (
            "test_consent",
            "test_controls",
            "test_oracle",
            "test_sanity",
            "test_table",
            "test_views",
        )
    ),
)
GROUP = {"tests/storefront_v1/": "tests/storefront_v1/played.py"}  # its modules' one scope


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    from xdist.scheduler import LoadScopeScheduling

    class Scheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            for prefix in SHARED_WORKER:
                if nodeid.startswith(prefix):
                    return next((g for d, g in GROUP.items() if prefix.startswith(d)), prefix)
            return super()._split_scope(nodeid)

    return Scheduling(config, log)


# the scratch world and its tests are templates, copied into a checkout by
# tests/core/test_scratch_family.py; here they name a package that does not exist
collect_ignore = ["scratch/coinjar", "scratch/coinjar_tests"]
