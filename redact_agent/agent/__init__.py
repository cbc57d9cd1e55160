"""The model-facing side: coordinate spaces, the output contract and its strict validator."""
