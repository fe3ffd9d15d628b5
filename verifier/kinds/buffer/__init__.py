"""The buffer kind: a shared buffer between its writer and its reader (theorem 23)."""
