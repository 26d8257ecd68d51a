"""Doors for other libraries: corefeval's scores where their training and evaluation loops ask for them."""
