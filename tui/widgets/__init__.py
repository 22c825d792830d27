"""Reusable Speedway widgets. They take data as attributes and post messages up (STYLE #10)."""
