"""The paper's model, read first and top-down: config.py (what a Transformer is), positional.py (where a
token is), attention.py (scaled dot-product and multi-head attention), layers.py (encoder and decoder
layers), transformer.py (the whole encoder–decoder, returning every attention map it computes); patch.py
(activation patching: values passed down forward in place of what the model computes)."""
