// N-API binding: loadKey(bytes) -> key handle (parsed once); prove(key, witness, rand, threads)
// -> Promise<{ proof, times }>, computed on the libuv pool so the JS thread stays free.
#include <node_api.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "prover.hpp"

namespace {

using nj::ProvingKey;

#define CHECK(call)                                                   \
  do {                                                                \
    if ((call) != napi_ok) {                                          \
      napi_throw_error(env, "NATIVE_API", "N-API call failed: " #call); \
      return nullptr;                                                 \
    }                                                                 \
  } while (0)

struct KeyBox {
  std::shared_ptr<const ProvingKey> key;
};

void finalizeKey(napi_env, void* data, void*) { delete static_cast<KeyBox*>(data); }

bool bytesOf(napi_env env, napi_value v, const uint8_t** data, size_t* len) {
  bool isTyped = false;
  if (napi_is_typedarray(env, v, &isTyped) != napi_ok || !isTyped) return false;
  napi_typedarray_type type;
  size_t length, offset;
  void* raw;
  napi_value ab;
  if (napi_get_typedarray_info(env, v, &type, &length, &raw, &ab, &offset) != napi_ok) return false;
  if (type != napi_uint8_array) return false;
  *data = static_cast<const uint8_t*>(raw);
  *len = length;
  return true;
}

napi_value setNumber(napi_env env, napi_value obj, const char* name, double v) {
  napi_value n;
  if (napi_create_double(env, v, &n) != napi_ok) return nullptr;
  napi_set_named_property(env, obj, name, n);
  return obj;
}

napi_value LoadKey(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  const uint8_t* data;
  size_t len;
  if (argc < 1 || !bytesOf(env, argv[0], &data, &len)) {
    napi_throw_type_error(env, "NATIVE_ARGUMENT", "loadKey expects a Uint8Array");
    return nullptr;
  }
  ProvingKey* key = nullptr;
  try {
    key = nj::loadKey(data, len);
  } catch (const nj::ProverFailure& e) {
    napi_throw_error(env, e.code.c_str(), e.what());
    return nullptr;
  } catch (const std::bad_alloc&) {
    napi_throw_error(env, "ZKEY_INVALID", "zkey too large to load");
    return nullptr;
  }
  auto* box = new KeyBox{std::shared_ptr<const ProvingKey>(key)};
  napi_value handle, result;
  if (napi_create_external(env, box, finalizeKey, nullptr, &handle) != napi_ok) {
    delete box;
    napi_throw_error(env, "NATIVE_API", "napi_create_external failed");
    return nullptr;
  }
  CHECK(napi_create_object(env, &result));
  CHECK(napi_set_named_property(env, result, "handle", handle));
  setNumber(env, result, "nVars", key->nVars);
  setNumber(env, result, "nPublic", key->nPublic);
  setNumber(env, result, "domainSize", key->domainSize);
  return result;
}

struct ProveJob {
  napi_async_work work = nullptr;
  napi_deferred deferred = nullptr;
  std::shared_ptr<const ProvingKey> key;
  std::vector<uint8_t> witness;
  uint8_t rand[128];
  unsigned threads = 1;
  nj::ProofOut out;
  nj::PhaseTimes times;
  std::string errCode, errMsg;
};

void ExecuteProve(napi_env, void* data) {
  auto* job = static_cast<ProveJob*>(data);
  try {
    nj::prove(*job->key, job->witness.data(), job->witness.size(), job->rand, job->threads, job->out, &job->times);
  } catch (const nj::ProverFailure& e) {
    job->errCode = e.code;
    job->errMsg = e.what();
  } catch (const std::exception& e) {
    job->errCode = "PROVER_INTERNAL";
    job->errMsg = e.what();
  }
  std::memset(job->rand, 0, sizeof job->rand);
}

void CompleteProve(napi_env env, napi_status, void* data) {
  std::unique_ptr<ProveJob> job(static_cast<ProveJob*>(data));
  napi_delete_async_work(env, job->work);
  if (!job->errCode.empty()) {
    napi_value code, msg, err;
    napi_create_string_utf8(env, job->errCode.c_str(), NAPI_AUTO_LENGTH, &code);
    napi_create_string_utf8(env, job->errMsg.c_str(), NAPI_AUTO_LENGTH, &msg);
    napi_create_error(env, code, msg, &err);
    napi_reject_deferred(env, job->deferred, err);
    return;
  }
  napi_value result, proof, times;
  void* buf;
  napi_create_object(env, &result);
  napi_create_buffer_copy(env, 256, job->out.proof, &buf, &proof);
  napi_set_named_property(env, result, "proof", proof);
  napi_create_object(env, &times);
  setNumber(env, times, "build", job->times.build);
  setNumber(env, times, "ntt", job->times.ntt);
  setNumber(env, times, "msm", job->times.msm);
  setNumber(env, times, "total", job->times.total);
  napi_set_named_property(env, result, "times", times);
  napi_resolve_deferred(env, job->deferred, result);
}

napi_value Prove(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CHECK(napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  void* ext = nullptr;
  napi_valuetype t;
  if (argc < 4 || napi_typeof(env, argv[0], &t) != napi_ok || t != napi_external ||
      napi_get_value_external(env, argv[0], &ext) != napi_ok) {
    napi_throw_type_error(env, "NATIVE_ARGUMENT", "prove expects (key, witness, rand, threads)");
    return nullptr;
  }
  const uint8_t *wit, *rnd;
  size_t wlen, rlen;
  if (!bytesOf(env, argv[1], &wit, &wlen) || !bytesOf(env, argv[2], &rnd, &rlen) || rlen != 128) {
    napi_throw_type_error(env, "NATIVE_ARGUMENT", "witness must be a Uint8Array, rand 128 bytes");
    return nullptr;
  }
  uint32_t threads = 1;
  if (napi_get_value_uint32(env, argv[3], &threads) != napi_ok || threads < 1 || threads > 64) {
    napi_throw_range_error(env, "NATIVE_ARGUMENT", "threads must be 1..64");
    return nullptr;
  }
  auto job = std::make_unique<ProveJob>();
  job->key = static_cast<KeyBox*>(ext)->key;
  job->witness.assign(wit, wit + wlen);  // copied: the caller may reuse its buffer at once
  std::memcpy(job->rand, rnd, 128);
  job->threads = threads;
  napi_value promise, name;
  CHECK(napi_create_promise(env, &job->deferred, &promise));
  CHECK(napi_create_string_utf8(env, "nightjar:groth16-prove", NAPI_AUTO_LENGTH, &name));
  CHECK(napi_create_async_work(env, nullptr, name, ExecuteProve, CompleteProve, job.get(), &job->work));
  CHECK(napi_queue_async_work(env, job->work));
  job.release();
  return promise;
}

napi_value Init(napi_env env, napi_value exports) {
  napi_value fn;
  CHECK(napi_create_function(env, "loadKey", NAPI_AUTO_LENGTH, LoadKey, nullptr, &fn));
  CHECK(napi_set_named_property(env, exports, "loadKey", fn));
  CHECK(napi_create_function(env, "prove", NAPI_AUTO_LENGTH, Prove, nullptr, &fn));
  CHECK(napi_set_named_property(env, exports, "prove", fn));
  return exports;
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
