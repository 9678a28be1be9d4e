"""The genetic algorithm of Mukhar and Kalita: its operators, a run and its folder, and the
runs shipped with the package."""
