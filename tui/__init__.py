"""Speedway's Textual front end and the `speedway` command line.

Owns every screen, widget and style, and the CLI entry point. Screens render folded views and
emit actions through the hub interface; they never change game state themselves.
"""
