"""Speedway's asyncio layer: the hub (tables, subscribers, bots, timers, durable logs) and the
asyncssh server that runs one TUI per SSH session. Must never import `tui` (the server receives
an app factory instead).
"""
