# The lesson's homework solved in R with R6 classes, as the course's starter code asks:
# the peer that `benchmarks/bench_simulation.py` times side by side with the CLI.
#
# Rules: ../../../shared/RULES.md (movement, lesson deck, long-stay jail).
# Usage: Rscript homework.R GAMES TURNS PLAYERS SEED
# Prints the tally of each space (40 numbers, one line), then the seconds it took.

suppressPackageStartupMessages(library(R6))

args <- commandArgs(trailingOnly = TRUE)
games <- as.integer(args[1])
turns <- as.integer(args[2])
players <- as.integer(args[3])
set.seed(as.integer(args[4]))

JAIL <- 11
GO_TO_JAIL <- 31
CHANCE <- c(8, 23, 37)
CHEST <- c(3, 18, 34)
RAILROADS <- c(6, 16, 26, 36)
UTILITIES <- c(13, 29)

# The course's starter classes, with the interface the homework hands out (a verbose
# switch on each, decks as data frames), in the form of the Python port in starter.py.
chance_deck <- data.frame(index = 1:15, card = paste("Chance card", 1:15))
community_deck <- data.frame(index = 1:16, card = paste("Community Chest card", 1:16))

Player <- R6Class("Player", public = list(
  pos = 1, verbose = FALSE, in_jail = FALSE, jail_turns = 0,
  initialize = function(verbose = FALSE, pos = 1) {
    self$verbose <- verbose
    self$pos <- pos
  },
  move_fwd = function(n) {
    self$pos <- (self$pos - 1 + n) %% 40 + 1
    if (self$verbose) cat("Player is now at", self$pos, "\n")
    invisible(self)
  },
  go_to_jail = function() {
    self$pos <- JAIL
    self$in_jail <- TRUE
    self$jail_turns <- 0
    invisible(self)
  }
))

RandomDice <- R6Class("RandomDice", public = list(
  verbose = FALSE,
  initialize = function(verbose = FALSE) {
    stopifnot(is.logical(verbose))
    self$verbose <- verbose
  },
  roll = function() {
    outcome <- sample(1:6, size = 2, replace = TRUE)
    if (self$verbose) cat("Dice rolled:", outcome, "\n")
    outcome
  }
))

CardDeck <- R6Class("CardDeck", public = list(
  verbose = FALSE, deck = NULL, deck_order = NULL, position = 1,
  initialize = function(deck, verbose = FALSE) {
    stopifnot(is.data.frame(deck), is.logical(verbose))
    self$deck <- deck
    self$verbose <- verbose
    self$deck_order <- sample(nrow(deck))
  },
  draw = function() {
    if (self$position > length(self$deck_order)) {
      self$deck_order <- sample(nrow(self$deck))
      self$position <- 1
    }
    outcome <- self$deck_order[self$position]
    self$position <- self$position + 1
    if (self$verbose) cat("Card:", self$deck$card[outcome], "\n")
    outcome
  }
))

SpaceTracker <- R6Class("SpaceTracker", public = list(
  counts = rep(0, 40), verbose = FALSE,
  initialize = function(verbose = FALSE) self$verbose <- verbose,
  tally = function(x) {
    self$counts[x] <- self$counts[x] + 1
    if (self$verbose) cat("Added tally to", x, "\n")
    invisible(self)
  }
))

nearest <- function(from, targets) {
  ahead <- targets[targets > from]
  if (length(ahead) == 0) targets[1] else ahead[1]
}

# Resolve a landing on the player's space: tally it, draw a card, follow a card that moves.
land <- function(player, tracker, chance, chest) {
  if (player$pos == GO_TO_JAIL) {
    player$go_to_jail()
    tracker$tally(JAIL)
    return(invisible())
  }
  tracker$tally(player$pos)
  if (player$pos %in% CHANCE) {
    card <- chance$draw()
    target <- switch(card, 1, 25, 12, nearest(player$pos, UTILITIES),
      nearest(player$pos, RAILROADS), 6, 40, JAIL, player$pos - 3)
    if (card == 8) {
      player$go_to_jail()
      tracker$tally(JAIL)
    } else if (card <= 9) {
      player$pos <- target
      land(player, tracker, chance, chest)
    }
  } else if (player$pos %in% CHEST) {
    card <- chest$draw()
    if (card == 1) {
      player$pos <- 1
      land(player, tracker, chance, chest)
    } else if (card == 2) {
      player$go_to_jail()
      tracker$tally(JAIL)
    }
  }
  invisible()
}

take_turn <- function(player, tracker, dice, chance, chest) {
  if (player$in_jail) {
    player$jail_turns <- player$jail_turns + 1
    roll <- dice$roll()
    if (roll[1] == roll[2] || player$jail_turns == 3) {
      player$in_jail <- FALSE
      player$jail_turns <- 0
      player$move_fwd(sum(roll))
      land(player, tracker, chance, chest)
    } else {
      tracker$tally(JAIL)
    }
    return(invisible())
  }
  for (doubles in 1:3) {
    roll <- dice$roll()
    if (roll[1] == roll[2] && doubles == 3) {
      player$go_to_jail()
      tracker$tally(JAIL)
      return(invisible())
    }
    player$move_fwd(sum(roll))
    land(player, tracker, chance, chest)
    if (roll[1] != roll[2] || player$in_jail) return(invisible())
  }
}

start <- Sys.time()
tracker <- SpaceTracker$new()
dice <- RandomDice$new()
for (game in seq_len(games)) {
  chance <- CardDeck$new(chance_deck)
  chest <- CardDeck$new(community_deck)
  everyone <- lapply(seq_len(players), function(i) Player$new())
  for (turn in seq_len(turns)) {
    for (player in everyone) take_turn(player, tracker, dice, chance, chest)
  }
}
cat(tracker$counts, "\n")
cat(format(as.numeric(Sys.time() - start, units = "secs")), "\n")
