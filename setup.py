"""Packaging: the package, plus the scenario data. tasks/ stays at the top of the repository
and is shipped inside the package as `checkout_consent.tasks_data` (wheel and sdist); the
suite finds it with importlib.resources (checkout_consent/runtime/files.py)."""

from setuptools import find_packages, setup

DATA = [
    "*.yaml",
    "*.md",
    "*.json",
    "*.jsonl",
    "*.txt",
    "Dockerfile",
    "examples/*.json",
    "chat_templates/*.jinja",
]
TASK_FILES = ["*.py", "*.yaml", "*.md", "*.json", "*.jsonl", "*.psv", "*.sha256", "*.toml"]

setup(
    packages=[
        *find_packages(include=["checkout_consent", "checkout_consent.*"]),
        "checkout_consent.tasks_data",
    ],
    package_dir={"checkout_consent.tasks_data": "tasks"},
    package_data={
        "": DATA,
        "checkout_consent.tasks_data": [
            f"{depth}{pattern}"
            for depth in ("", "*/", "*/*/", "*/*/*/", "*/*/*/*/")
            for pattern in TASK_FILES
        ],
    },
    # git-ignored, written on a developer's machine: secret held-out tasks, generated splits
    exclude_package_data={"checkout_consent.tasks_data": ["grocery/heldout/*", "*/hidden/*"]},
    # build output (`pip wheel .`) in .build/: a folder whose name starts with a dot is one
    # `inspect list tasks` and `inspect eval <folder>` never scan, so a build leaves no second
    # copy of every task to list or run (git ignores it too)
    options={"build": {"build_base": ".build"}},
)
