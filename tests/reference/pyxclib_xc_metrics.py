"""pyxclib's propensity-scored metrics, transcribed: the oracle of ``prm.psp``, ``psndcg`` and ``psrecall``.

pyxclib (https://github.com/kunaldahiya/pyxclib, commit 5d13086) is not on the
package index, so its functions are written out here from
``xclib/evaluation/xc_metrics.py`` with numpy and scipy.sparse, line for line
where they compute (the line numbers are that file's). Only the paths our inputs
take are kept: predictions as an integer array of top indices already in
ranking order (``sorted=True``), ground truth as a csr_matrix.

Two departures, each forced and each noted where it happens:

- ``true_labels[rows, cols].A1`` (``_eval_flags``, line 254): the indexing gives a
  dense ``np.matrix``, whose ``.A1`` is ``np.asarray(...).ravel()``.
- ``_get_topk_sparse`` (lines 97-107) calls ``xclib.utils.sparse.topk``, a numba
  kernel (``xclib/utils/sparse.py``, ``_topk_nb``, lines 41-77): per row, the
  indices of the ``min(k, nnz)`` largest values by ``np.argsort(data)[::-1]``,
  padded with ``pad_ind``. :func:`_topk_sparse` is that loop without numba.

``_ndcg`` (lines 440-451) stores its means in a float32 array; ``ndcg_dtype``
keeps that (pyxclib's output) or uses float64 (its formula at full precision).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp


def compute_inv_propesity(labels: sp.csr_matrix, a: float, b: float) -> np.ndarray:
    """xc_metrics.py lines 195-222: Jain et al.'s inverse propensity of each label."""
    num_instances, _ = labels.shape
    freqs = np.ravel(np.sum(labels, axis=0))
    c = (np.log(num_instances) - 1) * np.power(b + 1, a)
    wts = 1.0 + c * np.power(freqs + b, -a)
    return np.ravel(wts)


def _topk_sparse(x: sp.csr_matrix, k: int, pad_ind: int) -> np.ndarray:
    """xclib/utils/sparse.py lines 41-77 (``_topk_nb``) with pad_val 0, called from xc_metrics.py line 105."""
    x = x.tocsr()
    x.sort_indices()  # line 103
    data, indices, indptr = x.data, x.indices, x.indptr
    nr = len(indptr) - 1
    ind = np.full((nr, k), fill_value=pad_ind, dtype=indices.dtype)
    for i in range(nr):
        s, e = indptr[i], indptr[i + 1]
        num_el = min(k, e - s)
        temp = np.argsort(data[s:e])[::-1][:num_el]
        ind[i, :num_el] = indices[s:e][temp]
    return ind


def _setup_metric(
    x: np.ndarray, true_labels: sp.csr_matrix, inv_psp: np.ndarray | None, k: int
) -> tuple[np.ndarray, sp.csr_matrix, np.ndarray | None, np.ndarray | None]:
    """xc_metrics.py lines 225-247, with ``_get_topk`` for sorted integer indices (lines 119-121)."""
    num_instances, num_labels = true_labels.shape
    indices = x[:, :k] if x.shape[1] > k else x  # line 121
    ps_indices = None
    if inv_psp is not None:
        _mat = sp.spdiags(inv_psp, diags=0, m=num_labels, n=num_labels)  # lines 233-234
        _psp_wtd = _mat.dot(true_labels.T).T  # line 235 (_broad_cast keeps it sparse)
        ps_indices = _topk_sparse(_psp_wtd, k, num_labels)  # line 236 (pad index: num_labels, line 104)
        inv_psp = np.hstack([inv_psp, np.zeros(1)])  # line 237
    idx_dtype = true_labels.indices.dtype
    true_labels = sp.csr_matrix(
        (true_labels.data, true_labels.indices, true_labels.indptr),
        shape=(num_instances, num_labels + 1),
        dtype=true_labels.dtype,
    )  # lines 240-242
    true_labels.indices = true_labels.indices.astype(idx_dtype)
    return indices, true_labels, ps_indices, inv_psp


def _eval_flags(indices: np.ndarray, true_labels: sp.csr_matrix, inv_psp: np.ndarray | None) -> np.ndarray:
    """xc_metrics.py lines 250-260 (the sparse branch; ``.A1`` as ``np.asarray(...).ravel()``)."""
    nr, nc = indices.shape
    rows = np.repeat(np.arange(nr).reshape(-1, 1), nc)
    eval_flags = np.asarray(true_labels[rows, indices.ravel()]).ravel().reshape(nr, nc)
    if inv_psp is not None:
        eval_flags = np.multiply(inv_psp[indices], eval_flags)
    return eval_flags


def _precision(eval_flags: np.ndarray, k: int) -> np.ndarray:
    """xc_metrics.py lines 341-346."""
    deno = 1 / (np.arange(k) + 1)
    precision = np.mean(np.multiply(np.cumsum(eval_flags, axis=-1), deno), axis=0)
    return np.ravel(precision)


def _ndcg(eval_flags: np.ndarray, n: np.ndarray, k: int, ndcg_dtype: type = np.float32) -> np.ndarray:
    """xc_metrics.py lines 440-451 (``ndcg_dtype``: float32 as pyxclib stores it, or float64)."""
    _cumsum = 0.0
    _dcg = np.cumsum(np.multiply(eval_flags, 1 / np.log2(np.arange(k) + 2)), axis=-1)
    ndcg = np.zeros((1, k), dtype=ndcg_dtype)
    for _k in range(k):
        _cumsum += 1 / np.log2(_k + 1 + 1)
        ndcg[0, _k] = np.mean(np.multiply(_dcg[:, _k].reshape(-1, 1), 1 / np.minimum(n, _cumsum)))
    return np.ravel(ndcg)


def _recall(eval_flags: np.ndarray, deno: np.ndarray, k: int) -> np.ndarray:  # noqa: ARG001  (as pyxclib)
    """xc_metrics.py lines 583-586 (`k` unused there too)."""
    eval_flags = np.cumsum(eval_flags, axis=-1)
    recall = np.mean(np.multiply(eval_flags, deno), axis=0)
    return np.ravel(recall)


def psprecision(
    x: np.ndarray, true_labels: sp.csr_matrix, inv_psp: np.ndarray, k: int
) -> tuple[float, float]:
    """xc_metrics.py lines 334-338: (PSP@k as pyxclib reports it, its numerator: the mean per-query PSP@k)."""
    indices, true_labels, ps_indices, inv_psp = _setup_metric(x, true_labels, inv_psp, k)
    eval_flags = _eval_flags(indices, true_labels, inv_psp)
    ps_eval_flags = _eval_flags(ps_indices, true_labels, inv_psp)  # type: ignore[arg-type]
    found = _precision(eval_flags, k)
    return float((found / _precision(ps_eval_flags, k))[-1]), float(found[-1])


def _ndcg_denominator(true_labels: sp.csr_matrix, k: int) -> np.ndarray:
    """xc_metrics.py lines 431-436: each query's ideal DCG of its number of labels (the array ``n``)."""
    _total_pos = np.asarray(true_labels.sum(axis=1), dtype=np.int32)
    _max_pos = max(np.max(_total_pos), k)
    _cumsum = np.cumsum(1 / np.log2(np.arange(1, _max_pos + 1) + 1))
    return _cumsum[_total_pos - 1]


def psndcg(
    x: np.ndarray, true_labels: sp.csr_matrix, inv_psp: np.ndarray, k: int, ndcg_dtype: type = np.float32
) -> tuple[float, float]:
    """xc_metrics.py lines 427-437: (PSnDCG@k as pyxclib reports it, its numerator: the per-query mean)."""
    indices, true_labels, ps_indices, inv_psp = _setup_metric(x, true_labels, inv_psp, k)
    eval_flags = _eval_flags(indices, true_labels, inv_psp)
    ps_eval_flags = _eval_flags(ps_indices, true_labels, inv_psp)  # type: ignore[arg-type]
    n = _ndcg_denominator(true_labels, k)
    found = _ndcg(eval_flags, n, k, ndcg_dtype)
    best = _ndcg(ps_eval_flags, n, k, ndcg_dtype)
    return float((found / best)[-1]), float(found[-1])


def psrecall(x: np.ndarray, true_labels: sp.csr_matrix, inv_psp: np.ndarray, k: int) -> tuple[float, float]:
    """xc_metrics.py lines 573-580: (PSrecall@k as pyxclib reports it, its numerator: the per-query mean)."""
    indices, true_labels, ps_indices, inv_psp = _setup_metric(x, true_labels, inv_psp, k)
    deno = true_labels.sum(axis=1)
    deno[deno == 0] = 1
    deno = 1 / deno
    eval_flags = _eval_flags(indices, true_labels, inv_psp)
    ps_eval_flags = _eval_flags(ps_indices, true_labels, inv_psp)  # type: ignore[arg-type]
    found = _recall(eval_flags, np.asarray(deno), k)
    return float((found / _recall(ps_eval_flags, np.asarray(deno), k))[-1]), float(found[-1])
