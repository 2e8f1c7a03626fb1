"""Classroom activities: the class poll, and a map's numbers out (CSV, TSV)."""

STRINGS = {
    "nav.poll": "Class poll",
    "poll.title": "Class poll",
    "poll.intro": (
        "Answer your teacher's question about an attention map from your own device: type the code on the "
        "teacher's screen, choose, vote. Your teacher reveals the model's own answer at the end."
    ),
    "poll.code": "Poll code",
    "poll.code_help": "{n} letters and digits, as on the teacher's screen",
    "poll.join": "Join",
    "poll.bad_code": "That is not a poll code: a code is {n} letters and digits, as on the teacher's screen.",
    "poll.not_found": (
        "No open poll has this code. Check it on the teacher's screen; a poll closes {hours} hours after it started."
    ),
    "poll.question": (
        "While writing **{writes}** (the token after **{query}**: row {row} of the map), which token of the {source} "
        "sentence does the model look at most?"
    ),
    "poll.about": "{kind}, {layer}, {head} · {source} sentence: {sentence}",
    "poll.choose": "Your answer",
    "poll.vote": "Vote",
    "poll.voted": "Your vote is in: **{choice}**.",
    "poll.twice": "You have already voted in this poll: one vote each.",
    "poll.no_choice": "Choose one of the tokens first.",
    "poll.refused": "That vote could not be counted: the poll has closed. Ask your teacher for the new code.",
    "poll.wait": "The model's answer appears here when your teacher reveals it.",
    "poll.answer": "The model's answer: **{answer}** (weight {weight}).",
    "poll.agreed": "{agreed} of {votes} {votes:vote|votes} chose it.",
    "poll.host.code": "Code: {code}",
    "poll.host.join": (
        "Students scan the QR code or open this address on their device; or they open **Class poll** and type the code:"
    ),
    "poll.tally_title": "Votes so far: {n}",
    "poll.axis.options": "{source} token",
    "poll.axis.votes": "votes",
    "poll.answer_label": "the model's answer",
    "poll.reveal": "Reveal the model's answer",
    "poll.show_tally": "Show the class's tally",
    "poll.ended": "This poll has closed.",
    "poll.reveal_help": "Shows everyone the model's answer and the tally, and closes voting.",
    "poll.closed": "Voting closed when your teacher revealed the answer.",
    "poll.closed_vote": "That vote was not counted: voting closed when your teacher revealed the answer.",
    "poll.next": "Your teacher's next poll has a new code: type it here.",
    "poll.reopen": "Reopen voting",
    "poll.reopen_help": "Hides the answer again and takes votes again (from students who have not voted yet).",
    "poll.again": "New poll on this question",
    "poll.again_help": "The same question with a new code and no votes; its answer stays hidden until you reveal it.",
    "poll.patching.start": "Poll the class on this guess",
    "poll.patching.start_help": (
        "Asks the class in which kind of attention and at which layer the head is that carries the difference; the "
        "answer is the one holding the head with the largest measured effect. Opens the live tally."
    ),
    "poll.patching.question": (
        "Which head carries **{target}** (not **{foil}**)? In which kind of attention and layer does patching a head "
        "restore the clean answer most?"
    ),
    "poll.patching.about": "Activation patching · {source} sentences, clean: {clean} · corrupted: {corrupt}",
    "poll.patching.option": "{kind} · layer {layer}",
    "poll.patching.kind.encoder_self": "encoder self",
    "poll.patching.kind.decoder_self": "decoder self",
    "poll.patching.kind.cross": "cross",
    "poll.patching.axis": "kind of attention · layer",
    "poll.patching.answer": "The measured answer: **{answer}** (head {head}: {effect} of the difference, most of {n}).",
    "poll.patching.answer_label": "the measured answer",
    "poll.start.row": "Poll the class about a row",
    "poll.start.button": "Start a poll",
    "poll.host.qr": "Scan to vote",
    "poll.host.local_only": (
        "This server listens on this machine only: other devices cannot open the address. Start it with "
        "--server.address 0.0.0.0 (or set ATTENTION_PUBLIC_URL behind a proxy)."
    ),
    "poll.store_error.database": (
        "The class poll cannot reach its database {path}: {reason}. Whoever runs the server can check "
        "ATTENTION_POLL_DB. The other pages work as usual."
    ),
    "poll.store_error": (
        "The class poll cannot use its data file {path}: {reason}. Polls need a folder the server may write to, with "
        "free space; whoever runs the server can name one with ATTENTION_DATA_DIR. The other pages work as usual."
    ),
    "start.local_only": (
        "This server listens on this machine only, so these addresses open on it alone. For a class, start it with "
        "--server.address 0.0.0.0 (or set ATTENTION_PUBLIC_URL behind a proxy)."
    ),
    "start.student_base": (
        "Your address bar starts with {own}, which only this machine opens; students open the same views at "
        "{students} (the links below start with it)."
    ),
    "poll.store_error.student": (
        "The class poll cannot be used on this server right now; your teacher's screen says why. The other pages "
        "work as usual."
    ),
    "token.start": "⟨start⟩",
    "token.end": "⟨end⟩",
    "token.nth": "{token} (no. {n})",
    "row.writes": "{row}: {query} → writes {writes}",
    "poll.start.help": (
        "Asks the class which source token this row looks at most, in this layer and head; the model's answer is the "
        "row's largest weight. Opens the live tally."
    ),
    "link.why.poll_code": "it is not a poll code",
    "numbers.csv": "Download CSV",
    "numbers.tsv": "Copy as TSV",
    "numbers.tsv_help": (
        "The map's numbers, tab-separated: copy them with the button at the box's top right and paste them into a "
        "spreadsheet."
    ),
    "model.forced_prefix": (
        "A forced start must be ordinary tokens of the target vocabulary (ids below {vocab}, not <s>, </s> or <pad>), "
        "at most {limit} of them."
    ),
    "guess.toggle": "Guess first",
    "guess.toggle_help": (
        "Hide the map's weights: click the cell of the key you think a row weights most (or pick them beside it), then "
        "reveal. While it is on, the explorer shows one head: the grid and the lines would show the weights."
    ),
    "guess.hidden": "hidden until you reveal",
    "guess.prompt": (
        "The weights are hidden. Click the cell where a row (query) meets the key you think it attends to most, or "
        "pick them above; your guess gets a dashed outline. Then Reveal."
    ),
    "guess.click": "Click: guess this key for this row",
    "guess.one_head": "Guess first shows one head (the grid and the lines would show the weights): switch it off for the other views.",
    "guess.query": "Row (query)",
    "guess.key": "Your guess: the key it attends to most",
    "guess.reveal": "Reveal",
    "guess.hide": "Hide again",
    "guess.pick_first": "Pick a key first.",
    "guess.right": "Right! You picked **{guess}** (weight {guess_weight}); the head's strongest key was **{best}** (weight {best_weight}).",
    "guess.wrong": (
        "You picked **{guess}** (weight {guess_weight}, number {rank} of {n} keys); the head's strongest key was "
        "**{best}** (weight {best_weight})."
    ),
    "guess.why.flat": "No key stands out in this row: its strongest weight {best_weight} is under {factor}× an even share ({even}).",
    "guess.why.sink": (
        "**{best}** is the strongest key in {led} of {rows} rows. The page calls a key a sink when it is <s>, "
        "</s> or a punctuation mark and the strongest key in at least {share} of the rows ({least} of "
        "{rows}): the rows peak there whatever their own word, so this row's strongest key says little about its word."
    ),
    "guess.why.self": "The strongest key is the query's own position: the token reads itself most.",
    "guess.why.previous": "The strongest key is the position just before the query: this head reads the previous token.",
    "guess.why.next": "The strongest key is the position just after the query: this head reads the next token.",
    "guess.marks": "Dashed orange outline: your guess; solid dark outline: the row's strongest key.",
    "dguess.toggle": "Guess first",
    "dguess.toggle_help": "Hide the candidates until you have guessed the next token.",
    "dguess.now": "Step {step} of {steps}: which token comes next?",
    "dguess.prompt": "The model's top {k} candidates, sorted by their text, not by probability: which one did it rate most probable?",
    "dguess.pick": "Your guess",
    "dguess.right": "Right! You guessed **{guess}** ({guess_prob}), the model's most probable next token.",
    "dguess.wrong": "You guessed **{guess}** ({guess_prob}); the model's most probable next token was **{best}** ({best_prob}).",
    "dguess.mark": "Your guess has the thick dark outline.",
    "whatif.title": "What if it had written another token at step {step}?",
    "whatif.help": (
        "Force a token at this step (the tokens before it stay as the model wrote them) and let the model go on from "
        "there with the same search (beam {beam})."
    ),
    "whatif.pick": "One of this step's candidates",
    "whatif.type.zh": "…or type a token (for example one Chinese character)",
    "whatif.type.en": "…or type a token (for example an English word)",
    "whatif.run": "Continue from here",
    "whatif.bad.zh": "“{token}” is not one token of the model's target vocabulary: try a single character.",
    "whatif.bad.en": (
        "“{token}” is not one token of the model's target vocabulary: try one short, common word (a longer word "
        "is written as several pieces)."
    ),
    "whatif.nothing": "Choose a candidate or type a token first.",
    "whatif.original": "Original",
    "whatif.forced": "With “{token}” forced at step {step}",
    "whatif.changed": (
        "Red: what changed once the two outputs are aligned token by token. {dropped} of the original's {n_original} "
        "{n_original:token|tokens} dropped or replaced ({gone}); {added} of the forced output's {n_forced} "
        "{n_forced:token|tokens} inserted or new ({new})."
    ),
    "whatif.coverage_title": "Source coverage: how much attention each source token received",
    "whatif.coverage_help": (
        "Each output token's cross-attention (averaged over every layer and head) sums to 1; a bar adds up what one "
        "source token received over the whole output. An even share is {even_original} (original) and {even_forced} "
        "(forced) per token; under a quarter of it counts as a possible omission."
    ),
    "whatif.flag.measured": (
        "Measured on this model, the flag does not catch omissions: in {pairs} gold-aligned pairs with one content "
        "word's translation deleted from the reference on purpose, it flagged {caught} of {deleted} deleted words "
        "({share}) and {alarms} of {kept} kept ones, and a deleted word received {compared} of the averaged "
        "attention than a kept one (median {median_deleted} against {median_kept} of an even share). No flag does "
        "not mean nothing was omitted: read the translation itself."
    ),
    "whatif.flag.more": "more",
    "whatif.flag.less": "less",
    "whatif.flag.unmeasured": (
        "Whether the flag catches omissions has not been measured on this model (evaluation/omissions.py): no flag "
        "does not mean nothing was omitted; read the translation itself."
    ),
    "whatif.omitted": "Possible omissions in the {which} translation (under {threshold}): {tokens}.",
    "whatif.none": (
        "In the {which} translation no source token received under {threshold} (a quarter of an even share). "
        "That does not mean nothing was omitted."
    ),
    "whatif.which.original": "original",
    "whatif.which.forced": "forced",
    "whatif.axis.received": "attention received",
    "ex.check": "Check",
    "ex.none": "none",
    "masks.tab.try": "Try it",
    "qkv.tab.try": "Try it",
    "positional.tab.try": "Try it",
    "ex.masks.question": "In the decoder's causal mask of “{sentence}”, which keys are masked (hidden) from the query you pick?",
    "ex.masks.query": "Query",
    "ex.masks.keys": "The masked keys",
    "ex.masks.right": "Right: {keys} — every key after **{query}**; it may see {visible}.",
    "ex.masks.wrong": "Not quite: the masked keys are {keys} — every key after **{query}** (you chose {chosen}).",
    "ex.qkv.question": "In the worked example, which raw score of the first query is larger?",
    "ex.qkv.choice": "The larger score",
    "ex.qkv.right": "Right: q₁·k₁ = {a} and q₁·k₂ = {b}, so **{larger}** is larger by {diff}.",
    "ex.qkv.wrong": "Not this one: q₁·k₁ = {a} and q₁·k₂ = {b}, so **{larger}** is larger by {diff}.",
    "ex.pe.question": (
        "In the PE matrix of {length} positions and d_model = {d}, which other row is nearest to the row you pick "
        "(smallest distance between the two rows)?"
    ),
    "ex.pe.row": "Row",
    "ex.pe.pick": "The nearest other row",
    "ex.pe.right": "Right: row {chosen} is at distance {dist}, the smallest; the nearest rows are {answers}.",
    "ex.pe.wrong": "Row {chosen} is at distance {chosen_dist}; the nearest rows are {answers}, at distance {dist}.",
}
