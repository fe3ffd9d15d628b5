"""The tiled kind: a tiled MMA's operand moved by a tiled copy between its shared-memory tile and registers."""
