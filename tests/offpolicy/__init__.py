"""Off-policy estimators: the oracle runner, the generated slates and their tests."""
