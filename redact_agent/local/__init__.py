"""The embedded offline engine: OCR, recognisers and layout cues, boxes tightened to the ink."""
