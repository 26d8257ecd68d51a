"""Metrics against people: the 2022 human-judgment methodology as a reusable analysis.

Needs the optional extra ``corefeval[analysis]`` (pandas, statsmodels, matplotlib, krippendorff) for
regressions and plots; ratings, scales, agreement and trust need only numpy. ``corefeval humans``
runs it from files.
"""
