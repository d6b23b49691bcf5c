"""The record: the schema apart from the store, the hash chain, provenance, seat keys."""
