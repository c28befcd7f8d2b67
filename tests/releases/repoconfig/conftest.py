import pytest


@pytest.fixture
def seeded(db):
    from releases.repoconfig import demo

    demo.load(log=lambda message: None)
