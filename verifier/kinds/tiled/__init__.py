"""tiled"""
