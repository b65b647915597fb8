"""The offline question recipes, one kind of question per file.

Each recipe turns what it reads (a chunk's statements, a page's structure) into
``Candidate``s; ``generator`` offers them to the filter and chooses the records.
"""
