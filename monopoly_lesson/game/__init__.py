"""The whole game: money and property on the movement rules, its strategies, tournaments and
fast twin. The reference engine is :mod:`monopoly_lesson.game.engine`."""
