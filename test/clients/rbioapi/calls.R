# Runs rbioapi's JASPAR calls (calls.json beside this file) against one
# server and prints one JSON line per call: its name, whether it succeeded,
# the error text rbioapi gave, what it sent and got (URL, Accept, status,
# Content-Type), and a compact digest of the data rbioapi returned, so that
# the test can tell the RIGHT data from merely some data.
#
#   R_LIBS=<library with rbioapi> Rscript calls.R <calls.json> <base URL> <work folder>
#
# rbioapi has no option for its base URL (see README.md here): its settings
# function .rba_stg() is replaced in its namespace by one that answers the
# JASPAR keys for <base URL> and defers every other key to the original.
suppressPackageStartupMessages({
  library(rbioapi)
  library(jsonlite)
})

argv <- commandArgs(trailingOnly = TRUE)
if (length(argv) != 3L) stop("usage: Rscript calls.R <calls.json> <base URL> <work folder>")
calls_file <- argv[[1]]
base_url <- sub("/*$", "/", argv[[2]])
work <- argv[[3]]
dir.create(work, recursive = TRUE, showWarnings = FALSE)

# Only this machine: the test servers listen on loopback.
if (!grepl("^http://(127\\.0\\.0\\.1|localhost)(:[0-9]+)?/$", base_url)) stop("refusing a base URL off this machine: ", base_url)

ns <- asNamespace("rbioapi")
original_stg <- get(".rba_stg", envir = ns)
mirror_stg <- function(...) {
  keys <- c(...)
  if (length(keys) >= 2L && keys[[1]] == "jaspar") {
    if (keys[[2]] == "url") return(base_url)
    if (keys[[2]] == "pth") return("api/v1/")
    # Tells rbioapi's error parser that an answer came from JASPAR, so that
    # it reads the {"detail": …} body of a 4xx.
    if (keys[[2]] == "ptn") return(paste0("^", gsub("([.:/])", "\\\\\\1", base_url), "api/"))
  }
  if (length(keys) == 1L && keys[[1]] == "tests") return(list(JASPAR = paste0(base_url, "api/v1/live-api/")))
  original_stg(...)
}
utils::assignInNamespace(".rba_stg", mirror_stg, ns = "rbioapi")
# On a failed request or a 5xx rbioapi asks google.com whether the machine
# is online; this machine is not, and must not try.
utils::assignInNamespace(".rba_net_handle", function(...) TRUE, ns = "rbioapi")

# What each call sent and got: rbioapi hands every HTTP response to one of
# these two parsers (the error parser on a non-2xx, which also calls the
# response parser for the body), so wrapping them records the last exchange.
exchange <- new.env()
record <- function(response) {
  exchange$url <- response$url
  exchange$request_url <- response$request$url
  exchange$accept <- unname(response$request$headers[["Accept"]])
  exchange$status <- response$status_code
  exchange$type <- unname(httr::headers(response)[["content-type"]])
  exchange$body_bytes <- length(response$content)
}
original_response_parser <- get(".rba_response_parser", envir = ns)
original_error_parser <- get(".rba_error_parser", envir = ns)
utils::assignInNamespace(".rba_response_parser", function(response, parsers) {
  record(response)
  original_response_parser(response, parsers)
}, ns = "rbioapi")
utils::assignInNamespace(".rba_error_parser", function(response, verbose = FALSE) {
  record(response)
  original_error_parser(response, verbose)
}, ns = "rbioapi")

options(rba_skip_error = TRUE, rba_verbose = FALSE, rba_diagnostics = FALSE, rba_retry_max = 0,
        rba_progress = FALSE, rba_timeout = 120, rba_save_file = FALSE)

# ---- digests -----------------------------------------------------------------

md5 <- function(text) {
  file <- tempfile(tmpdir = work)
  on.exit(unlink(file))
  writeBin(charToRaw(enc2utf8(text)), file)
  unname(tools::md5sum(file))
}
# Host names differ between servers (the oracle writes its own, the mirror
# its --base-url, the MEME URL line JASPAR's): compare bodies without them.
without_hosts <- function(text) gsub("https?://[^/[:space:]\"',]+", "HOST", text, perl = TRUE)
# I(): a JSON array also when it holds one value.
head_of <- function(x, n = 3L) I(as.character(utils::head(x, n)))
first_line <- function(text) sub("\n.*", "", text)

# Lists of matrices (searches, *_matrices, versions): rbioapi returns the
# page {count, next, previous, results} or, for versions, the results only.
digest_matrices <- function(x) {
  results <- if (is.data.frame(x)) x else x[["results"]]
  if (!is.data.frame(results) && !(is.list(results) && length(results) == 0L)) return(unexpected(x))
  ids <- if (is.data.frame(results)) as.character(results[["matrix_id"]]) else character(0)
  list(
    count = if (is.data.frame(x)) length(ids) else as.integer(x[["count"]]),
    rows = length(ids),
    first = head_of(ids),
    last = if (length(ids)) ids[[length(ids)]] else "",
    ids_md5 = md5(paste(ids, collapse = "\n"))
  )
}

# Index lists (collections, taxa, species, releases): the key column's values.
digest_index <- function(x) {
  if (!is.data.frame(x)) return(unexpected(x))
  key <- intersect(c("year", "tax_id", "name"), names(x))[1]
  if (is.na(key)) return(unexpected(x))
  # A set: the order of these lists is the server's choice. Radix sorts by
  # code point whatever the locale.
  values <- sort(as.character(x[[key]]), method = "radix")
  list(rows = nrow(x), key = key, values_md5 = md5(paste(values, collapse = "\n")), first = head_of(values))
}

digest_release <- function(x) {
  if (!is.list(x) || is.null(x[["year"]])) return(unexpected(x))
  list(year = as.integer(x[["year"]]), matrices = if (is.null(x[["matrices"]])) NULL else as.integer(x[["matrices"]]))
}

digest_sites <- function(x) {
  results <- x[["results"]]
  if (!is.data.frame(results)) return(unexpected(x))
  rows <- paste(results[["chrom"]], format(results[["start"]], scientific = FALSE, trim = TRUE),
                format(results[["end"]], scientific = FALSE, trim = TRUE), results[["strand"]], sep = "\t")
  list(matrix_id = x[["matrix_id"]], rows = nrow(results), first = head_of(rows, 1L), rows_md5 = md5(paste(rows, collapse = "\n")))
}

# A matrix as rbioapi returns it (its pfm turned into a 4-row matrix).
digest_detail <- function(x) {
  if (!is.list(x) || is.null(x[["matrix_id"]]) || !is.matrix(x[["pfm"]])) return(unexpected(x))
  pfm <- x[["pfm"]]
  list(
    matrix_id = x[["matrix_id"]], name = x[["name"]], collection = x[["collection"]],
    pfm_rows = paste(rownames(pfm), collapse = ""), pfm_columns = ncol(pfm),
    pfm_md5 = md5(paste(formatC(as.vector(pfm), digits = 15, format = "g"), collapse = " ")),
    annotations_md5 = md5(without_hosts(as.character(toJSON(x[setdiff(names(x), "pfm")], auto_unbox = TRUE, digits = NA))))
  )
}

# A file download: rbioapi returns the text it saved.
digest_text <- function(x) {
  if (!is.character(x) || length(x) != 1L) return(unexpected(x))
  text <- without_hosts(x)
  list(bytes = nchar(text, type = "bytes"), first_line = first_line(text), md5 = md5(text))
}

unexpected <- function(x) {
  text <- tryCatch(as.character(toJSON(x, auto_unbox = TRUE, force = TRUE)), error = function(e) paste(class(x), collapse = "/"))
  list(unexpected = substr(text, 1L, 160L))
}

digesters <- list(matrices = digest_matrices, index = digest_index, release = digest_release, sites = digest_sites,
                  detail = digest_detail, text = digest_text)

# ---- the calls -----------------------------------------------------------------

spec <- fromJSON(calls_file, simplifyVector = TRUE, simplifyDataFrame = FALSE)
for (call in spec$calls) {
  rm(list = ls(exchange), envir = exchange)
  # jsonlite reads 2024 as an integer; rbioapi checks for class "numeric", as R users type it.
  args <- lapply(call$args, function(value) if (is.integer(value)) as.numeric(value) else value)
  if (!is.null(args$file_format)) args$save_to <- file.path(work, sprintf("%s-%s.%s", call$name, args$matrix_id, args$file_format))
  started <- Sys.time()
  warnings_seen <- character(0)
  result <- withCallingHandlers(
    tryCatch(do.call(call$fn, args, envir = ns), error = function(e) structure(conditionMessage(e), class = "call_error")),
    warning = function(w) {
      warnings_seen <<- c(warnings_seen, conditionMessage(w))
      invokeRestart("muffleWarning")
    }
  )
  elapsed_ms <- round(as.numeric(difftime(Sys.time(), started, units = "secs")) * 1000)
  status <- if (is.null(exchange$status)) NA_integer_ else as.integer(exchange$status)
  # With rba_skip_error rbioapi returns an error as a string; a file
  # download's text is a string too, so the HTTP status decides.
  failed <- inherits(result, "call_error") || is.na(status) || status < 200L || status > 299L ||
    (is.character(result) && length(result) == 1L && call$digest != "text")
  line <- list(
    name = call$name,
    ok = !failed,
    error = if (failed) paste(as.character(result), collapse = "\n") else NULL,
    request = if (is.null(exchange$request_url)) NULL else sub("^https?://[^/]+", "", exchange$request_url),
    accept = exchange$accept,
    status = if (is.na(status)) NULL else status,
    type = exchange$type,
    ms = elapsed_ms,
    warnings = if (length(warnings_seen)) warnings_seen else NULL,
    digest = if (failed) NULL else digesters[[call$digest]](result)
  )
  cat(as.character(toJSON(line[!vapply(line, is.null, logical(1))], auto_unbox = TRUE, null = "null", digits = NA)), "\n", sep = "")
}
