"""Across a corpus: one head's queries and keys over many sentences (AttentionViz), every head of a kind, a token
searched across the corpus (exBERT)."""

STRINGS = {
    "nav.corpus": "Across a corpus",
    "corpus.title": "Across a corpus: one head, every sentence",
    "corpus.intro": (
        "Every query and every key of one head, for every sentence of a corpus, in one picture (as AttentionViz draws "
        "them). A head that attends by position draws a ribbon ordered by position; a head that matches a word draws "
        "clusters where each word's queries sit on that word's keys. Hover a point for its token in its sentence; "
        "click it to open that sentence in the explorer on this head."
    ),
    "corpus.view": "View",
    "corpus.view.head": "One head",
    "corpus.view.matrix": "Every head",
    "corpus.view.search": "Search a token",
    "corpus.method": "Projection",
    "corpus.colour": "Colour by",
    "corpus.colour.role": "Query / key",
    "corpus.colour.position": "Position",
    "corpus.colour.token": "Token",
    "corpus.query": "query",
    "corpus.key": "key",
    "corpus.position": "position (0 first, 1 last)",
    "corpus.other_tokens": "other tokens",
    "corpus.head_title": "{kind}, layer {layer}, head {head}.",
    "corpus.chart_title": "{method} of {queries} queries and {keys} keys from {sentences} sentences.",
    "corpus.hover.query": "query “{token}” at position {position}",
    "corpus.hover.key": "key “{token}” at position {position}",
    "corpus.hover.sentence": "sentence {n} of the corpus",
    "corpus.adjusted": (
        "Keys shifted by {shift} so their centre sits on the queries' centre, queries × {c} and keys ÷ {c} so their "
        "mean lengths match: no softmax row changes. How far the picture keeps the model's scores: the correlation "
        "between q·k and the distance drawn, over the {pairs} query–key pairs of the same sentence, is {raw} for the "
        "raw vectors and {adjusted} for the adjusted ones (−1: the keys a query scores highest are always drawn "
        "nearest; 0: distance says nothing)."
    ),
    "corpus.click_hint": "Click a point to open its sentence in the explorer on this head.",
    "corpus.download": "Points as CSV",
    "corpus.panel": "L{layer} H{head}\nr {r}",
    "corpus.matrix_title": "{kind}: every head by PCA, on {sentences} of the {total} sentences.",
    "corpus.matrix_hint": (
        "Each small picture is one head by PCA (r: its adjusted correlation between q·k and distance). Heads that "
        "behave alike look alike. Click a point of a head to open that head on its own."
    ),
    "corpus.projecting": "Projecting {points} points by {method} (once: kept on disk after)… {{seconds}} s",
    "corpus.projecting_matrix": "Projecting every head ({heads}) by PCA (once: kept on disk after)… {{seconds}} s",
    "corpus.running": "Running the model over the corpus (once: kept on disk after): {done} of {total} sentences",
    "corpus.search_token": "Token",
    "corpus.search_help": (
        "Pick a token the queries of this attention have (commonest first), or type a word: it is split into tokens "
        "as this attention's queries read it."
    ),
    "corpus.search_summary": (
        "**{tokens}** occurs {n} {n:time|times} as a query. Its heaviest key is {counts}. Below, the {shown} "
        "{shown:occurrence|occurrences} whose heaviest key weighs most, heaviest first."
    ),
    "corpus.search_none": "**{tokens}** does not occur among this attention's queries in the corpus.",
    "corpus.count.same_token": "the same token elsewhere {n} {n:time|times}",
    "corpus.count.itself": "itself {n} {n:time|times}",
    "corpus.count.next": "the next token {n} {n:time|times}",
    "corpus.count.previous": "the previous token {n} {n:time|times}",
    "corpus.count.full_stop": "the full stop {n} {n:time|times}",
    "corpus.count.end": "</s> {n} {n:time|times}",
    "corpus.col.weight": "Top weight",
    "corpus.col.sentence": "The token in its sentence",
    "corpus.col.keys": "Heaviest keys",
    "corpus.col.number": "Sentence",
    "corpus.open_sentence": "Sentence",
    "corpus.open": "Open in the explorer on this head",
    "corpus.which": (
        "Corpus: {n} sentences read from {source} into {target}: {gold} gold pairs (Tatoeba, CC-BY 2.0 FR, credited "
        "in evaluation/alignment/pairs.tsv), {examples} examples written for the app and {user} of yours. Decoder and "
        "cross attention are teacher-forced on each pair's reference (your sentences: on the model's own "
        "translation)."
    ),
    "corpus.turned": "The pairs are the English → Chinese ones turned round.",
    "corpus.user_title": "Add your own sentences",
    "corpus.user_label": "Your sentences, one a line",
    "corpus.user_help": (
        "Up to {n} sentences of at most {chars} characters each, in the language the model reads. Lines that cannot be "
        "read are left out, and the page says which."
    ),
    "corpus.user_add": "Add to the corpus",
    "corpus.problem.empty": "Left out: line {lines} is empty.",
    "corpus.problem.too_long": "Left out: line {lines} is longer than {limit} characters.",
    "corpus.problem.too_many": "Left out: line {lines} is past the first {limit} sentences.",
    "corpus.problem.markup": "Left out: line {lines} holds markup (<…> or &…;), which a sentence never needs.",
    "corpus.problem.emoji": "Left out: line {lines} holds emoji or pictographs, which the model never read.",
    "corpus.problem.other_script": "Left out: line {lines} is not in the language this model reads.",
    "corpus.teach_title": "What the picture says, what it does not, and two heads read",
    "corpus.limit.cluster": (
        "A cluster is a set of queries and keys this head puts near each other: where a query sits near a key, the "
        "head scores that pair high. It is a picture of the scores, not of meaning: it says what the head compares, "
        "not what the words mean."
    ),
    "corpus.limit.distance": (
        "A projection to two dimensions distorts distances: points drawn near may be far apart in the head's {d_k} "
        "dimensions. The correlation under the picture says how far distance follows q·k; near 0, read nothing "
        "from the distances."
    ),
    "corpus.limit.tsne": (
        "t-SNE and UMAP keep neighbours, not distances: the size of a cluster and the gaps between clusters mean "
        "little, and another seed moves them. PCA keeps the two directions of most spread, faithfully but only those."
    ),
    "corpus.limit.adjust": (
        "The keys are shifted onto the queries and both scaled to the same mean length, as AttentionViz does: "
        "softmax ignores a shift that adds the same to every score of a query, and q × c with k ÷ c leaves q·k as "
        "it was, so attention is unchanged and queries and keys can be compared in one picture."
    ),
    "corpus.limit.forced": (
        "Decoder and cross attention are read with the reference as the decoder's input (teacher forcing); the "
        "explorer shows the model's own translation, so a sentence opened there may differ on the decoder's side."
    ),
    "corpus.readings_pending": "The worked readings are being computed from this corpus…",
    "corpus.reading.positional": (
        "**A positional head: {head}** Over the {queries} queries of the corpus, {share} % put their heaviest weight "
        "on {offset}. Colour by position: the points line up by their place in the sentence, whatever the word."
    ),
    "corpus.reading.matching": (
        "**A matching head: {head}** For {share} % of its {queries} queries, the key it scores highest in the whole "
        "corpus carries the query's own token (by chance: {chance} %). Colour by token: each word's queries sit "
        "on that word's keys."
    ),
    "corpus.reading.no_positional": (
        "**No positional head on this corpus.** The closest is {head}: {share} % of its heaviest weights at one "
        "offset, under the {threshold} % that would make it one."
    ),
    "corpus.reading.no_matching": (
        "**No head reaches {threshold} % matching on this corpus; the one that matches most is {head}** For {share} % "
        "of its {queries} queries, the key it scores highest in the whole corpus carries the query's own token "
        "(by chance: {chance} %). Colour by token: where a word's queries sit on that word's keys, it matches."
    ),
    "corpus.offset.itself": "the query's own position",
    "corpus.offset.previous": "the previous token",
    "corpus.offset.next": "the next token",
    "corpus.show_head": "Show this head",
    "corpus.roles_title": (
        "**Every head on this corpus.** Positional: at least {positional} % of its heaviest weights at one offset. "
        "Matching: for at least {matching} % of its queries, the key it scores highest carries their own token."
    ),
    "corpus.roles_line": "{kind}: positional {positional}; matching {matching}; neither {neither}.",
    "corpus.not_trained_here": (
        "This page needs a model trained here (en-zh or zh-en): {checkpoint} is a converted Marian model. Choose one "
        "of ours in the sidebar."
    ),
    "corpus.error": "The corpus cannot be shown: {why}",
}
