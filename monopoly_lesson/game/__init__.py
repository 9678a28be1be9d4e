"""The whole game: money and property on the movement rules, its strategies, tournaments and
compiled twin. The reference engine is :mod:`monopoly_lesson.game.engine`."""
