"""Scoring against gold with the LeakageBench protocol, and the report built on it."""
