"""Speedway's pure rules core.

Owns the seeded generator, the game contract, the game registry, the Table and one package per
game. It must not import anything else of ours, nor textual, asyncssh, asyncio, time or random:
every game is a deterministic function of its seed and the actions taken.
"""
