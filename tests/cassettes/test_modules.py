"""The cassette package's modules import one way: none reaches itself back through the
others (imports inside functions count, as in tests/core/test_architecture.py)."""

from tests.core.test_architecture import in_folder, reach


def test_cassettes__no_module_reaches_itself_back():
    modules = in_folder("cassettes")
    assert len(modules) > 5  # the walker sees the package
    assert not [name for name in modules if name in reach(name)]
