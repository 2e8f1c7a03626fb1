"""A Marian (opus-mt) model in the app: the converted model must compute what transformers computes.

A tiny random MarianMTModel with a SentencePiece tokenizer trained here is saved
the way Hugging Face models are (tests/support/tiny_marian.py), then read back through
the app's own loader.
"""

import json

import numpy as np
import pytest
import torch

from lessons.live import recompute_weights
from model import ATTENTION_KINDS, CheckpointError, InputError, Translator
from model.loading import marian
from model.translation.cli import main as cli_main
from tests.support.tiny_marian import ENGLISH, LANGUAGE, save_tiny_marian

transformers = pytest.importorskip("transformers")
pytest.importorskip("sentencepiece")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return save_tiny_marian(tmp_path_factory.mktemp("marian") / "tiny-marian")


@pytest.fixture(scope="module")
def multi_target(tmp_path_factory):
    return save_tiny_marian(tmp_path_factory.mktemp("marian") / "tiny-marian-multi", seed=0, languages=True)


@pytest.fixture(scope="module")
def ours(folder):
    return Translator.from_checkpoint(folder, device="cpu")


@pytest.fixture(scope="module")
def theirs(folder):
    model = transformers.MarianMTModel.from_pretrained(folder, attn_implementation="eager").eval()
    return model, transformers.MarianTokenizer.from_pretrained(folder)


def chosen_ids(translator, result) -> list[int]:
    """The decoder's start token, the output and </s>: what generate() returns."""
    return [translator.config.bos_id, *[s.chosen.token_id for s in result.steps]]


def generated(theirs, text: str, beams: int) -> list[int]:
    model, tok = theirs
    with torch.inference_mode():
        return model.generate(tok(text, return_tensors="pt").input_ids, num_beams=beams, do_sample=False)[0].tolist()


def test_source_ids_are_the_marian_tokenizers(ours, theirs):
    _, tok = theirs
    for text in ENGLISH:
        assert ours.prepare(text)[1] == tok(text).input_ids


@pytest.mark.parametrize("beams", [1, 2, 4])
def test_the_search_chooses_what_generate_chooses(ours, theirs, beams):
    lengths = set()
    for text in ENGLISH:
        result = ours.translate(text, beam=beams)
        want = generated(theirs, text, beams)
        assert chosen_ids(ours, result) == want, text
        lengths.add(len(want))
    assert len(lengths) >= 3  # outputs that end early, late and at the limit: the comparison covers stopping


def test_every_attention_map_equals_transformers_output_attentions(ours, theirs):
    model, tok = theirs
    worst = 0.0
    for text in ENGLISH[:5]:
        for beams in (1, 3):
            result = ours.translate(text, beam=beams)
            src = torch.tensor([ours.prepare(text)[1]])
            tgt = torch.tensor([[ours.config.bos_id, *[s.chosen.token_id for s in result.steps[:-1]]]])
            with torch.inference_mode():
                out = model(input_ids=src, decoder_input_ids=tgt, output_attentions=True)
            want = {
                "encoder_self": torch.stack(out.encoder_attentions)[:, 0],  # (layers, heads, S, S)
                "decoder_self": torch.stack(out.decoder_attentions)[:, 0],
                "cross": torch.stack(out.cross_attentions)[:, 0],
            }
            for kind in ATTENTION_KINDS:
                got = result.attention(kind)
                assert got.shape == want[kind].shape
                np.testing.assert_allclose(got, want[kind].numpy(), atol=1e-5)
                worst = max(worst, float(np.abs(got - want[kind].numpy()).max()))
            # the output distribution too: transformers' softmax over the tokens generate() may choose (not padding)
            logits = out.logits[0].float().index_fill(-1, torch.tensor([ours.config.pad_id]), float("-inf"))
            probs = torch.softmax(logits, -1)
            for t, step in enumerate(result.steps):
                assert abs(step.chosen.prob - float(probs[t, step.chosen.token_id])) < 1e-5
    print(f"largest difference from transformers' attention maps: {worst:.2e}")


def test_a_heads_hand_recomputation_from_its_projections_equals_the_returned_map(ours):
    result = ours.translate(ENGLISH[2])
    x = result.encoder_sublayers["input"][1]  # (S, d_model): layer 2's input
    d_head = ours.config.d_head
    for kind in ATTENTION_KINDS:
        for layer in range(ours.config.n_encoder_layers):
            for head in range(ours.config.n_heads):
                h = result.head(kind, layer, head)
                np.testing.assert_allclose(recompute_weights(h.q, h.k, h.mask), h.weights, atol=1e-5)
    # q = x W_Q + b_Q, then Marian scales it by 1/√d_head: the same weights as dividing the scores
    w = ours.weight("encoder_layers.1.self_attn.q_proj.weight")
    b = ours.weight("encoder_layers.1.self_attn.q_proj.bias")
    q = (x @ w.T + b)[:, :d_head]  # head 1
    np.testing.assert_allclose(q, result.queries["encoder_self"][1, 0], atol=1e-4)


def test_a_multi_target_model_gets_its_target_language_token_first(multi_target):
    ours = Translator.from_checkpoint(multi_target, device="cpu")
    assert LANGUAGE in ours.languages
    model = transformers.MarianMTModel.from_pretrained(multi_target).eval()
    tok = transformers.MarianTokenizer.from_pretrained(multi_target)
    result = ours.translate(ENGLISH[0], beam=1)  # greedy, as generate(num_beams=1) below
    assert result.source_tokens[0] == LANGUAGE
    ids = tok(f"{LANGUAGE} {ENGLISH[0]}").input_ids
    assert ours.prepare(ENGLISH[0])[1] == ids
    with torch.inference_mode():
        want = model.generate(torch.tensor([ids]), num_beams=1, do_sample=False)[0].tolist()
    assert chosen_ids(ours, result) == want
    with pytest.raises(InputError, match="target language"):
        ours.translate(ENGLISH[0], language=">>xyz<<")


def test_typed_control_text_stays_text(ours):
    result = ours.translate(f"{LANGUAGE} <pad> </s> hello")
    assert result.source_tokens.count("</s>") == 1 and "<pad>" not in result.source_tokens


def test_parameters_are_the_marian_configs(ours, theirs):
    model, _ = theirs
    # Marian counts its shared table once and the frozen positional tables as parameters; the app counts neither twice
    positional = sum(p.numel() for n, p in model.named_parameters() if "embed_positions" in n)
    assert sum(ours.parameter_counts.values()) == model.num_parameters() - positional + model.final_logits_bias.numel()
    assert ours.config.activation == "swish" and ours.config.positional_layout == "halves"


def test_the_cli_prints_the_json_contract_for_a_marian_folder(folder, capsys):
    status = cli_main(["--checkpoint", str(folder), "--json", "--beam", "2", ENGLISH[0]])
    out = capsys.readouterr()
    assert status == 0, out.err
    data = json.loads(out.out)
    s, t = len(data["source_tokens"]), len(data["target_tokens"])
    assert data["checkpoint"] == str(folder) and data["beam"] == 2
    layers, heads = 2, 4
    assert np.array(data["attention"]["encoder_self"]).shape == (layers, heads, s, s)
    assert np.array(data["attention"]["cross"]).shape == (layers, heads, t, s)


def test_a_folder_that_is_neither_ours_nor_marian_gets_a_clear_error(tmp_path, capsys):
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "bert"}))
    with pytest.raises(CheckpointError, match="missing"):
        Translator.from_checkpoint(tmp_path)
    assert cli_main(["--checkpoint", str(tmp_path), "hello"]) == 2  # an error the command would print as a traceback raises here
    assert "error:" in capsys.readouterr().err


def test_without_transformers_the_error_says_what_to_install(folder, monkeypatch):
    monkeypatch.setattr(marian, "marian_available", lambda: False)
    with pytest.raises(CheckpointError, match="requirements-marian.txt"):
        Translator.from_checkpoint(folder)


def test_a_hub_id_that_cannot_be_reached_gets_a_clear_error(monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)  # read once at import: setting the variable now is too late
    with pytest.raises(CheckpointError, match="save_pretrained"):
        Translator.from_checkpoint("Helsinki-NLP/opus-mt-xx-not-cached")


def test_heads_knock_out_and_attribution_work_on_a_marian_model(ours):
    plain = ours.translate(ENGLISH[0])
    result = ours.translate(ENGLISH[0], knock_out=(("cross", 0, 0), ("encoder_self", 0, 3)))
    assert result.knocked_out == (("cross", 0, 0), ("encoder_self", 0, 3))
    assert not np.array_equal(plain.encoder_self[1:], result.encoder_self[1:])  # layer 2 sees layer 1's changed output
    for method in ("input_x_gradient", "integrated_gradients"):
        attribution = ours.attribute(result, method)
        assert attribution.scores.shape == result.cross.shape[2:] and np.isfinite(attribution.scores).all()
