"""The Hungarian dictionary: finding hunspell's files and answering lookups through pyhunspell."""
