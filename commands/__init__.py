"""The command lines, at the top of the house."""
