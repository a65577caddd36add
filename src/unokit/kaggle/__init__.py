"""Packages laid out as the games of Kaggle's ``kaggle-environments`` (its OpenSpiel games,
``envs/open_spiel_env/games/<game>/``), so that they could be proposed there: :mod:`.uno`."""
