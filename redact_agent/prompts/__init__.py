"""Versioned prompt templates, shipped as package data."""
