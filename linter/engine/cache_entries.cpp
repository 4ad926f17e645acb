// SPDX-License-Identifier: Apache-2.0
// CacheEntries (engine.h): the facts cache's entries, a vector sorted by absolute path.
#include "engine/engine.h"

#include <algorithm>
#include <functional>
#include <iterator>

namespace sc {

// One entry a parsed file, kept for the whole run: 80 bytes with its path (a tree node and a
// key string were about 250 more).
#if defined(__GLIBCXX__) && __SIZEOF_POINTER__ == 8
static_assert(sizeof(CacheEntries::Item) == 80, "keep a cache entry small: it is kept for every parsed file");
#endif

namespace {

bool by_path(const CacheEntries::Item& a, const CacheEntries::Item& b) { return a.first < b.first; }
bool same_path(const CacheEntries::Item& a, const CacheEntries::Item& b) { return a.first == b.first; }

}  // namespace

CacheEntry& CacheEntries::operator[](PathRef abs) {
  auto it = std::lower_bound(items_.begin(), items_.end(), abs, [](const Item& i, PathRef k) { return i.first < k; });
  if (it == items_.end() || it->first != abs) it = items_.insert(it, Item{abs, CacheEntry{}});
  return it->second;
}

bool CacheEntries::append(PathRef abs, CacheEntry e) {
  if (!items_.empty() && !(items_.back().first < abs)) return false;
  items_.emplace_back(abs, std::move(e));
  return true;
}

void CacheEntries::keep_and_add(const std::vector<bool>& keep, std::vector<Item> items) {
  size_t kept = 0;
  for (size_t i = 0; i < items_.size(); ++i)
    if (i < keep.size() && keep[i] && kept++ != i) items_[kept - 1] = std::move(items_[i]);
  items_.resize(kept);
  if (!std::is_sorted(items.begin(), items.end(), by_path)) std::sort(items.begin(), items.end(), by_path);
  items.erase(std::unique(items.begin(), items.end(), same_path), items.end());
  CacheEntries added;
  added.items_ = std::move(items);
  if (items_.empty()) items_.swap(added.items_);
  else merge(added);
}

void CacheEntries::merge(CacheEntries& other) {
  if (other.items_.empty()) return;
  size_t mid = items_.size();
  items_.reserve(mid + other.items_.size());
  std::move(other.items_.begin(), other.items_.end(), std::back_inserter(items_));
  other.items_.clear();
  std::inplace_merge(items_.begin(), items_.begin() + static_cast<ptrdiff_t>(mid), items_.end(), by_path);
  items_.erase(std::unique(items_.begin(), items_.end(), same_path), items_.end());  // stable: this one's stays
}

CacheEntries CacheEntries::split_off(const std::function<bool(PathRef)>& in) {
  CacheEntries out;
  auto kept = items_.begin();
  for (auto it = items_.begin(); it != items_.end(); ++it) {
    if (in(it->first)) out.items_.push_back(std::move(*it));
    else if (kept++ != it) *std::prev(kept) = std::move(*it);
  }
  items_.erase(kept, items_.end());
  return out;
}

}  // namespace sc
