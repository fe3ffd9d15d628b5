"""atom"""
