"""Epilogue subtile order (theorem 42): an accumulator stage stored subtile by subtile through a staged shared tile."""
