"""Speedway's screens: home, new game, lobby, table screens, replay viewer, rules, settings."""
