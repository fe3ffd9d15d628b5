"""tmem"""
