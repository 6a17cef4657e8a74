"""The pages' template tags."""
