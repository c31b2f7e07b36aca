"""Weights of ``riskmath.evaluate.estimate_victory_probabilities``: generated, do not edit.

Made by ``python bench/fit_estimate.py --games 300 --seed 2026 --l2 0.0001`` (seed 2026) from 25140
positions (player-turns 10-40) of 1124 games between odds agents, 300 per player count 2-6 less the
held-out fourth, classic map and rules, cap 500 turns (drawn games left out).
Rerun the script to regenerate; the names are ``riskmath.evaluate._features.FEATURES``, in order.
"""

#: The feature names the weights go with, in order.
FEATURES = (
    "territories",
    "armies",
    "income",
    "log_territories",
    "log_armies",
    "log_income",
    "exposure",
    "kept_bonus",
    "cards",
    "to_move",
    "waiting",
    "log_territories_late",
    "log_armies_late",
    "log_income_late",
)
#: One weight per feature.
COEFFICIENTS = (
    0.9357613401414474,  # territories
    2.3274768402093504,  # armies
    1.4872745943355141,  # income
    1.0377215086803635,  # log_territories
    0.4597469783310628,  # log_armies
    -0.1577665668043952,  # log_income
    -3.0891228464200866,  # exposure
    0.43384297603597843,  # kept_bonus
    0.5120109968331443,  # cards
    0.052962508141289624,  # to_move
    -0.7234961449571817,  # waiting
    -1.2205290107290305,  # log_territories_late
    0.0,  # log_armies_late
    -0.36819971711955884,  # log_income_late
)
