"""The offline demo: bundled documents, a bundled RAG app, and the chain that ties them."""
