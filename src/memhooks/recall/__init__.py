"""Finding the memories that bear on a prompt: the tokenizer, ranking and gate, the search
index (read and write sides), citations."""
