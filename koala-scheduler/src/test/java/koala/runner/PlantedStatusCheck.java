package koala.runner;

import koala.http.ApiException;

/** Domain code deciding on a status, planted for {@code GuardsTest}. */
final class PlantedStatusCheck {
    private PlantedStatusCheck() {
    }

    static boolean tryAgain(ApiException e) {
        return e.transientFailure();
    }
}
