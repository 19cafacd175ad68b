"""Failures for people: the failure text with its replay command, and reproducer directories."""
