"""Reporters: they only format a result, never compute one."""
