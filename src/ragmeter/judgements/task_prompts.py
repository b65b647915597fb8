"""Every instruction ragmeter gives an LLM judge, with its few-shot example, in one place.

Each prompt asks for one kind of judgement about the tagged texts of a sample
(<question>, <answer>, <ground_truth>, numbered <context>, <answer_claim>,
<ground_truth_claim> and <sentence> tags). Which metrics use which prompt:

=========================  ==============================================================
prompt                     metrics
=========================  ==============================================================
answer_claims              faithfulness, answer correctness, factual correctness, noise sens.
ground_truth_claims        context recall, answer correctness, factual correctness
answer_support             faithfulness, noise sensitivity
ground_truth_support       context recall
answer_in_ground_truth     answer correctness, factual correctness, noise sensitivity
ground_truth_in_answer     answer correctness, factual correctness
answer_questions           answer relevancy
context_usefulness         context precision
chunk_relevance            context relevance
relevant_sentences         context relevancy
entities                   context entity recall
critique                   aspect critiques (the criterion is added per aspect)
rubric                     rubrics (the criterion and the level descriptions are added)
g_eval                     G-Eval criteria (the criterion and its evaluation steps are added)
g_eval_steps               G-Eval: writes a criterion's evaluation steps, once per run
agent_goal(_with_ref...)   agent goal accuracy (a whole conversation, in a <conversation> tag)
topic_adherence            topic adherence (one verdict per user message)
knowledge_retention        knowledge retention (one verdict per assistant reply)
conversation_completeness  conversation completeness
=========================  ==============================================================

Examples are kept to one short line each: they are sent with every call, so every word
costs tokens on every sample. ``ragmeter.judges.adapt`` translates them.
"""

from __future__ import annotations

from ragmeter.prompts.template import Example, PromptSet, TaskPrompt

_EINSTEIN = "Albert Einstein (born 14 March 1879) was a German-born theoretical physicist."

ANSWER_CLAIMS = TaskPrompt(
    name="answer_claims",
    instruction=(
        "Break the <answer> into its claims: short, atomic, self-contained statements of fact, "
        "in the answer's own words and language. Replace pronouns with the names they stand for "
        "(use the question). A refusal or 'I don't know' has no claims."
    ),
    examples=(
        Example(
            input={"question": "Who was Einstein?", "answer": "He was a physicist born in Germany in 1879."},
            output={"claims": ["Einstein was a physicist.", "Einstein was born in Germany.", "Einstein was born in 1879."]},
        ),
    ),
)

GROUND_TRUTH_CLAIMS = TaskPrompt(
    name="ground_truth_claims",
    instruction=(
        "Break the <ground_truth> into its claims: short, atomic, self-contained statements of "
        "fact, in its own words and language, pronouns replaced by names."
    ),
    examples=(
        Example(
            input={"ground_truth": "France is in Western Europe and its capital is Paris."},
            output={"claims": ["France is in Western Europe.", "The capital of France is Paris."]},
        ),
    ),
)

_SUPPORT_RULE = (
    "A claim is supported only if it is stated in the {source} or follows directly from what is "
    "stated there; a claim the {source} contradicts or does not mention is not supported. Give "
    "one verdict per claim, in order, each with a one-sentence reason."
)

ANSWER_SUPPORT = TaskPrompt(
    name="answer_support",
    instruction="For each <answer_claim>, decide whether the <context> passages support it. "
    + _SUPPORT_RULE.format(source="context passages"),
    examples=(
        Example(
            input={"context": [_EINSTEIN], "answer_claim": ["Einstein was born in Germany.", "Einstein was born on 20 March 1879."]},
            output={"verdicts": [
                {"reason": "The context says he was German-born.", "verdict": True},
                {"reason": "The context gives 14 March 1879.", "verdict": False},
            ]},
        ),
    ),
)

GROUND_TRUTH_SUPPORT = TaskPrompt(
    name="ground_truth_support",
    instruction="For each <ground_truth_claim>, decide whether it can be attributed to the <context> "
    "passages. " + _SUPPORT_RULE.format(source="context passages"),
    examples=(
        Example(
            input={"context": ["France lies in Western Europe."], "ground_truth_claim": ["France is in Western Europe.", "The capital of France is Paris."]},
            output={"verdicts": [
                {"reason": "The context states it.", "verdict": True},
                {"reason": "No context mentions Paris.", "verdict": False},
            ]},
        ),
    ),
)

ANSWER_IN_GROUND_TRUTH = TaskPrompt(
    name="answer_in_ground_truth",
    instruction="For each <answer_claim>, decide whether the <ground_truth> supports it. "
    + _SUPPORT_RULE.format(source="ground truth"),
    examples=(
        Example(
            input={"ground_truth": "Einstein was born in 1879 in Germany.", "answer_claim": ["Einstein was born in Spain.", "Einstein was born in 1879."]},
            output={"verdicts": [
                {"reason": "The ground truth says Germany.", "verdict": False},
                {"reason": "The ground truth says 1879.", "verdict": True},
            ]},
        ),
    ),
)

GROUND_TRUTH_IN_ANSWER = TaskPrompt(
    name="ground_truth_in_answer",
    instruction="For each <ground_truth_claim>, decide whether the <answer> states it. "
    + _SUPPORT_RULE.format(source="answer"),
    examples=(
        Example(
            input={"answer": "Einstein was born in Spain in 1879.", "ground_truth_claim": ["Einstein was born in 1879.", "Einstein was born in Germany."]},
            output={"verdicts": [
                {"reason": "The answer says 1879.", "verdict": True},
                {"reason": "The answer says Spain.", "verdict": False},
            ]},
        ),
    ),
)

ANSWER_QUESTIONS = TaskPrompt(
    name="answer_questions",
    instruction=(
        "Write questions that the <answer> answers, judging from the answer alone (do not copy "
        "or rephrase the <question>), in the language of the <question>. Also say whether the answer "
        "is noncommittal: evasive, vague, or a refusal such as 'I don't know'."
    ),
    examples=(
        Example(
            input={"answer": "France is in Western Europe and its capital is Paris."},
            output={"questions": ["Where is France and what is its capital?"], "noncommittal": False},
        ),
    ),
)

CONTEXT_USEFULNESS = TaskPrompt(
    name="context_usefulness",
    instruction=(
        "For each <context>, in order, decide whether it was useful for arriving at the "
        "{reference} as an answer to the <question>, with a one-sentence reason."
    ),
    examples=(
        Example(
            input={"question": "Where is France and what is its capital?", "reference": "France is in Western Europe and its capital is Paris.",
                   "context": ["France is known for its wines and its long history.", "France, in Western Europe, has Paris as its capital."]},
            output={"verdicts": [
                {"reason": "It says nothing about location or capital.", "verdict": False},
                {"reason": "It gives both the location and the capital.", "verdict": True},
            ]},
        ),
    ),
)

CHUNK_RELEVANCE = TaskPrompt(
    name="chunk_relevance",
    instruction=(
        "For each <context>, in order, rate how much it helps answer the <question>: relevance 1 "
        "if it answers it, 0.5 if it answers part of it, 0 if it does not help, even when it "
        "shares the question's topic or words. Give a one-sentence reason first."
    ),
    examples=(
        Example(
            input={"question": "What county is Ackley, Iowa in?", "context": [
                "Ackley is a city in Franklin and Hardin Counties in Iowa.", "Hockley County is in northwestern Texas."]},
            output={"verdicts": [
                {"reason": "It names Ackley's counties.", "relevance": 1.0},
                {"reason": "A county of the same name, not Ackley's.", "relevance": 0.0},
            ]},
        ),
    ),
)

RELEVANT_SENTENCES = TaskPrompt(
    name="relevant_sentences",
    instruction=(
        "List the numbers of the <sentence>s that are needed to answer the <question>. Leave out "
        "sentences that are off the question's topic. An empty list means none is needed."
    ),
    examples=(
        Example(
            input={"question": "What is the capital of France?", "sentence": ["Paris is the capital of France.", "France is famous for its wines."]},
            output={"reason": "Only the first sentence names the capital.", "sentences": [1]},
        ),
    ),
)

ENTITIES = TaskPrompt(
    name="entities",
    instruction=(
        "List the named entities of the <ground_truth> and, separately, of all the <context> "
        "passages together: people, places, organisations, works, events, dates and numbers, "
        "each once, written as in the text."
    ),
    examples=(
        Example(
            input={"ground_truth": "The Taj Mahal in Agra was commissioned in 1631 by Shah Jahan.", "context": ["The Taj Mahal is a UNESCO site in India."]},
            output={"ground_truth": ["Taj Mahal", "Agra", "1631", "Shah Jahan"], "contexts": ["Taj Mahal", "UNESCO", "India"]},
        ),
    ),
)

CRITIQUE = TaskPrompt(
    name="critique",
    instruction=(
        "Judge the <answer> (to the <question>, with the retrieved <context> passages, where "
        "given) against the criterion below. "
        "verdict is true if the answer meets it, false if not; give the reason first."
    ),
    examples=(
        Example(
            input={"question": "How do I boil an egg?", "answer": "Boil it for nine minutes, then cool it in cold water.", "criterion": "Is the answer free of content that could harm someone?"},
            output={"reason": "Plain cooking advice with no harmful content.", "verdict": True},
        ),
    ),
)

RUBRIC = TaskPrompt(
    name="rubric",
    instruction=(
        "Grade the <answer> (to the <question>, with the <ground_truth> and the retrieved "
        "<context> passages, where given) against the criterion below: choose the level of "
        "the scale whose description fits it best. Give the reason first, then the level."
    ),
    examples=(
        Example(
            input={"question": "How do I reset my password?", "answer": "Click 'Forgot password' on the sign-in page.",
                   "criterion": "helpfulness; 1: no help, 3: partly helpful, 5: complete and actionable"},
            output={"reason": "Actionable, but it omits the e-mail step.", "level": 4},
        ),
    ),
)

_CHAT = "[user 1] Book me a table for two on Friday.\n[tool call] book({\"day\": \"Friday\", \"people\": 2})\n[assistant 1] Booked for two on Friday."

AGENT_GOAL = TaskPrompt(
    name="agent_goal",
    instruction=(
        "Read the <conversation> (user messages, assistant replies, tool calls and results). Say "
        "what the user wanted (goal), what the conversation ended with (outcome), and whether the "
        "outcome achieves the goal (achieved), the reason first."
    ),
    examples=(
        Example(
            input={"conversation": _CHAT},
            output={"goal": "a table for two on Friday", "outcome": "a booking for two on Friday",
                    "reason": "The booking matches the request.", "achieved": True},
        ),
    ),
)

G_EVAL = TaskPrompt(
    name="g_eval",
    instruction=(
        "Evaluate the <answer> (to the <question>, with the <ground_truth> and the retrieved "
        "<context> passages, where given) on the criterion below by following its evaluation "
        "steps in order. Give the reason first, then the level: one integer on the scale."
    ),
)

G_EVAL_STEPS = TaskPrompt(
    name="g_eval_steps",
    instruction=(
        "Write the evaluation steps a careful grader follows to rate an answer of a "
        "question-answering system on the criterion below: 3 to 6 short, concrete steps, in "
        "order, that end in a level of the scale."
    ),
)
"""Not a task of a sample's call: the one free-form call per criterion and run that writes
the steps G-Eval then shows with every sample."""
AGENT_GOAL_WITH_REFERENCE = TaskPrompt(
    name="agent_goal_with_reference",
    instruction=(
        "Read the <conversation> (user messages, assistant replies, tool calls and results). The "
        "<reference> is the outcome the user wanted: that is the goal. Say what the conversation "
        "ended with (outcome) and whether it achieves the reference outcome (achieved), the reason first."
    ),
    examples=(
        Example(
            input={"conversation": _CHAT, "reference": "A table for four is booked on Friday."},
            output={"goal": "a table for four on Friday", "outcome": "a booking for two on Friday",
                    "reason": "Booked for two, not four.", "achieved": False},
        ),
    ),
)

TOPIC_ADHERENCE = TaskPrompt(
    name="topic_adherence",
    instruction=(
        "The assistant may only talk about the <topic>s. For each user message of the "
        "<conversation> ([user 1], [user 2], ...), in order, say whether the assistant answered it "
        "(answered: false if it refused or deflected) and whether the message falls within the "
        "<topic>s (on_topic). One verdict per user message, each with a one-sentence reason."
    ),
    examples=(
        Example(
            input={"conversation": "[user 1] What's your refund policy?\n[assistant 1] 30 days, full refund.\n"
                                   "[user 2] Who wins the cup?\n[assistant 2] I can only help with orders.",
                   "topic": ["orders and refunds"]},
            output={"verdicts": [
                {"reason": "Refunds are in scope and were answered.", "answered": True, "on_topic": True},
                {"reason": "Football is out of scope and was declined.", "answered": False, "on_topic": False},
            ]},
        ),
    ),
)

KNOWLEDGE_RETENTION = TaskPrompt(
    name="knowledge_retention",
    instruction=(
        "For each assistant reply of the <conversation> ([assistant 1], [assistant 2], ...), in "
        "order, decide whether it keeps what the user said earlier in the conversation: verdict is "
        "false if the reply contradicts, forgets or asks again for a fact the user already gave, "
        "true otherwise. One verdict per reply, each with a one-sentence reason."
    ),
    examples=(
        Example(
            input={"conversation": "[user 1] I'm vegan. Dinner ideas?\n[assistant 1] A lentil curry.\n"
                                   "[user 2] Something quicker?\n[assistant 2] A steak takes ten minutes."},
            output={"verdicts": [
                {"reason": "A vegan dish.", "verdict": True},
                {"reason": "Steak ignores that the user is vegan.", "verdict": False},
            ]},
        ),
    ),
)

CONVERSATION_COMPLETENESS = TaskPrompt(
    name="conversation_completeness",
    instruction=(
        "List the user's intentions over the <conversation> (what they wanted from it, one short "
        "item each; a follow-up that refines an earlier request is part of it), and for each say "
        "whether the conversation satisfied it, the reason first."
    ),
    examples=(
        Example(
            input={"conversation": "[user 1] Change my flight to Monday and add a bag.\n[assistant 1] Your flight is now on Monday."},
            output={"intentions": [
                {"intention": "move the flight to Monday", "reason": "Done.", "satisfied": True},
                {"intention": "add a bag", "reason": "The bag was not mentioned.", "satisfied": False},
            ]},
        ),
    ),
)

DEFAULT_PROMPTS = PromptSet(
    [
        ANSWER_CLAIMS,
        GROUND_TRUTH_CLAIMS,
        ANSWER_SUPPORT,
        GROUND_TRUTH_SUPPORT,
        ANSWER_IN_GROUND_TRUTH,
        GROUND_TRUTH_IN_ANSWER,
        ANSWER_QUESTIONS,
        CONTEXT_USEFULNESS,
        CHUNK_RELEVANCE,
        RELEVANT_SENTENCES,
        ENTITIES,
        CRITIQUE,
        RUBRIC,
        G_EVAL,
        G_EVAL_STEPS,
        AGENT_GOAL,
        AGENT_GOAL_WITH_REFERENCE,
        TOPIC_ADHERENCE,
        KNOWLEDGE_RETENTION,
        CONVERSATION_COMPLETENESS,
    ]
)
"""The prompts ragmeter uses unless told otherwise (``evaluate(..., prompts=...)``)."""
