"""The metric script ``evaluate`` loads (see :func:`corefeval.integrations.evaluate_module`)."""
